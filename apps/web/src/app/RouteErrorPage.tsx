import { Button } from '../shared/components/Button';
import { Logo } from '../shared/components/Logo';
import '../shared/styles/notFound.css';

/** Shown when a screen fails to render. */
export function RouteErrorPage() {
  return (
    <main className="not-found">
      <div className="not-found__card" role="alert">
        <Logo className="not-found__logo" />
        <h1 className="not-found__title">Something went wrong</h1>
        <div className="not-found__actions">
          <Button
            size="lg"
            onClick={() => {
              window.location.reload();
            }}
          >
            Reload
          </Button>
        </div>
      </div>
    </main>
  );
}

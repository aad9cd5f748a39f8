import { Link } from 'react-router-dom';
import { buttonClassName } from '../../shared/components/Button';
import { Logo } from '../../shared/components/Logo';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import '../../shared/styles/notFound.css';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <main className="not-found">
      <div className="not-found__card">
        <Logo className="not-found__logo" />
        <p className="not-found__code">404</p>
        <h1 className="not-found__title">Page not found</h1>
        <p className="not-found__text">
          Sorry, we couldn&apos;t find the page you&apos;re looking for.
        </p>
        <div className="not-found__actions">
          <Link to="/" className={buttonClassName({ size: 'lg' })}>
            Go back home
          </Link>
          <Link to="/" className="not-found__support">
            Contact support <span aria-hidden="true">&rarr;</span>
          </Link>
        </div>
      </div>
    </main>
  );
}

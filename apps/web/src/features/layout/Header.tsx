import { Link } from 'react-router-dom';
import { Logo } from '../../shared/components/Logo';

export function Header() {
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__brand">
          <Logo />
        </Link>
      </div>
    </header>
  );
}

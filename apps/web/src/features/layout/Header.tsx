import { Link } from 'react-router-dom';
import { Logo } from '../../components/Logo';

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

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import illustrationUrl from '../../shared/assets/auth-illustration.svg';
import { Logo } from '../../shared/components/Logo';
import './auth.css';

interface AuthLayoutProps {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
}

/** Login and signup: the form on one side, a large illustration beside it on wide screens. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <div className="auth">
      <main className="auth__panel">
        <div className="auth__content">
          <Link to="/" className="auth__brand">
            <Logo size="lg" />
          </Link>
          <div className="auth__intro">
            <h1 className="auth__title">{title}</h1>
            <p className="auth__subtitle">{subtitle}</p>
          </div>
          {children}
          <p className="auth__footer">{footer}</p>
        </div>
      </main>
      <div className="auth__art" aria-hidden="true">
        <img src={illustrationUrl} alt="" className="auth__illustration" />
        <div className="auth__tagline">
          <p className="auth__tagline-title">Find your flock.</p>
          <p className="auth__tagline-text">
            Share short posts, follow the people you care about and keep up with what they are
            saying.
          </p>
        </div>
      </div>
    </div>
  );
}

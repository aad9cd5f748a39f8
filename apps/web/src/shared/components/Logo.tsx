import logoUrl from '../assets/logo.svg';
import { PRODUCT_NAME } from '../lib/brand';
import './Logo.css';

export interface LogoProps {
  /** Shows the product name beside the mark. */
  withName?: boolean;
  size?: 'md' | 'lg';
  className?: string;
}

/** The Perch mark, optionally with the product name. Decorative when the name is shown. */
export function Logo({ withName = true, size = 'md', className }: LogoProps) {
  return (
    <span className={['logo', `logo--${size}`, className].filter(Boolean).join(' ')}>
      <img src={logoUrl} alt={withName ? '' : PRODUCT_NAME} className="logo__mark" />
      {withName && <span className="logo__name">{PRODUCT_NAME}</span>}
    </span>
  );
}

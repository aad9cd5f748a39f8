import type { ReactNode } from 'react';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
}

/** The heading of a signed-in page; also names the browser tab. */
export function PageHeader({ title, subtitle }: PageHeaderProps) {
  useDocumentTitle(title);
  return (
    <header className="page__header">
      <h1 className="page__title">{title}</h1>
      {subtitle !== undefined && <p className="page__subtitle">{subtitle}</p>}
    </header>
  );
}

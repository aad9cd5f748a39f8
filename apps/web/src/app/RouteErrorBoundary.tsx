import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { RouteErrorPage } from './RouteErrorPage';

interface BoundaryProps {
  children: ReactNode;
  /** The screen's address: a new one clears the error, so the member can go elsewhere. */
  path: string;
}

class ErrorBoundary extends Component<BoundaryProps, { failedAt: string | null }> {
  override state = { failedAt: null as string | null };

  static getDerivedStateFromError(): { failedAt: string } {
    return { failedAt: '' };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.setState({ failedAt: this.props.path });
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    const { failedAt } = this.state;
    const failedHere = failedAt !== null && (failedAt === '' || failedAt === this.props.path);
    return failedHere ? <RouteErrorPage /> : this.props.children;
  }
}

/** Shows the error page when a screen fails to render, until the member moves to another. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary path={pathname}>{children}</ErrorBoundary>;
}

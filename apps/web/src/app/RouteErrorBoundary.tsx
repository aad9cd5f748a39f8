import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { RouteErrorPage } from './RouteErrorPage';

interface BoundaryProps {
  children: ReactNode;
  /** The screen's address: a new one clears the error, so the member can go elsewhere. */
  path: string;
}

interface BoundaryState {
  failed: boolean;
  path: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, path: this.props.path };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    return props.path === state.path ? null : { failed: false, path: props.path };
  }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <RouteErrorPage /> : this.props.children;
  }
}

/** Shows the error page when a screen fails to render, until the member moves to another. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary path={pathname}>{children}</ErrorBoundary>;
}

import { Button } from '../../shared/components/Button';

interface LoadProblemProps {
  message: string;
  retrying: boolean;
  onRetry: () => void;
}

/** A section's list that could not be loaded: what failed, and Retry. */
export function LoadProblem({ message, retrying, onRetry }: LoadProblemProps) {
  return (
    <div className="settings-problem">
      <p role="alert">{message}</p>
      <Button variant="secondary" size="sm" loading={retrying} onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

import { createPortal } from 'react-dom';
import { Toaster } from 'react-hot-toast';

/**
 * Toasts: top centre, 8 px apart; success toasts last 2 s, blank and error ones 4 s, loading
 * ones until dismissed. Rendered straight into <body> so they stay announced while a modal
 * makes the app inert.
 */
export function AppToaster() {
  return createPortal(
    <Toaster position="top-center" gutter={8} toastOptions={{ success: { duration: 2000 } }} />,
    document.body,
  );
}

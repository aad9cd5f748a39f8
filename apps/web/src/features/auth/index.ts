// What other features use of signing in.
export { AuthLayout } from './AuthLayout';
export { LoginPage } from './LoginPage';

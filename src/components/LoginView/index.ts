export { LoginView, type LoginViewProps } from './LoginView';

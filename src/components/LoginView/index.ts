export { LoginView, type LoginViewProps, type SecondFactorStep } from './LoginView';

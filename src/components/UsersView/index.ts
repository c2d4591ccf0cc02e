export { UsersView, type UsersViewProps } from './UsersView';

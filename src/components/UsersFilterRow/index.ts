export { UsersFilterRow, type UsersFilterRowProps } from './UsersFilterRow';

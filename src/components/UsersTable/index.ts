export { UsersTable, USERS_COLUMNS } from './UsersTable';
export type { UsersCellContext, UsersTableProps } from './UsersTable';

export {
  UsersTable,
  USERS_TABLE_VIRTUALIZE_ABOVE_ROWS,
  type UsersTableProps,
  type UsersTableStatus,
} from './UsersTable';

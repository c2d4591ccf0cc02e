export {
  UsersView,
  USERS_FILTER_FIELDS,
  type UsersActionResult,
  type UsersViewProps,
} from './UsersView';

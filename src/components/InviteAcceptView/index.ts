export {
  InviteAcceptView,
  type InviteAcceptState,
  type InviteAcceptViewProps,
} from './InviteAcceptView';

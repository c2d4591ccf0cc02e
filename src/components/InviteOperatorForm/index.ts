export {
  InviteOperatorForm,
  type InviteOperatorFormProps,
  type InviteState,
} from './InviteOperatorForm';

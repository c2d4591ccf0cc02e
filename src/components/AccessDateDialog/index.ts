export {
  AccessDateDialog,
  type AccessDateDialogProps,
  type DatedAccessActionKind,
} from './AccessDateDialog';

export {
  ActionResultAlert,
  type ActionResultAlertProps,
  type ActionResultMessage,
  type ActionResultTone,
} from './ActionResultAlert';

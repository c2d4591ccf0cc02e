export {
  onDemand,
  useOnDemandPopup,
  whenIdle,
  type OnDemandPart,
  type OnDemandPopupOptions,
  type OnDemandProps,
} from './OnDemand';

export {
  TextField,
  SelectField,
  type TextFieldProps,
  type SelectFieldProps,
  type SelectOption,
} from './Field';

export {
  TextField,
  SelectField,
  CheckboxField,
  type TextFieldProps,
  type SelectFieldProps,
  type CheckboxFieldProps,
  type SelectOption,
} from './Field';

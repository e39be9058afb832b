interface AccountNameFieldProps {
  value: string;
}

/**
 * The account's name inside a form that asks for its password, hidden: password managers then
 * know which saved login the form is about (and update the right one after a change).
 */
export function AccountNameField({ value }: AccountNameFieldProps) {
  return (
    <input type="text" name="username" autoComplete="username" value={value} readOnly hidden />
  );
}

/** Form schemas of the administration dialogs: the shared payload rules with the messages the dialogs show. */
import * as v from 'valibot'
import { GlobalRoleInput } from '../../../contract'

const Name = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message))

export const EditUserForm = v.object({
  name: Name('Name must be at least 2 characters'),
  surname: Name('Surname must be at least 2 characters'),
  role: GlobalRoleInput,
})

/** Input-file checks shared by the commands (defined in @faun/kit, used by every verb). */
export { requireReadableFile } from '@faun/kit';

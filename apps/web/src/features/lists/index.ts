/** What other features use of the lists: the calls (the wizard's recipients) and the file errors' texts. */
export { listErrorText } from './errors';
export { listsApi } from './listsApi';

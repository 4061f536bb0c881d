/** What other features use of the audios: the calls (a voice campaign's and a test's audio picker). */
export { audiosApi } from './audiosApi';

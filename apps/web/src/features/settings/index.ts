/** What other features use of the settings: the profile (the test send's default phone). */
export { settingsApi } from './settingsApi';

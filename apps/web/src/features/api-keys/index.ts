/** What other features use of the API keys: the settings page's "API" section. */
export { ApiKeysCard } from './ApiKeysCard';

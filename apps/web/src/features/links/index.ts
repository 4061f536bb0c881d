/** What other features use of the rotating links: the calls (the wizard's link picker). */
export { linksApi } from './linksApi';

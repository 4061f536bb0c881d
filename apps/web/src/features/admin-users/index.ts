/** What other features use of the administrators' users: the users search. */
export { adminUsersApi } from './adminUsersApi';

import type { FastifyInstance } from 'fastify';
import type { AuthGuard } from '../auth/guard.ts';

/**
 * How a module mounts its HTTP routes: the composition root calls each module's in a fixed order,
 * after every module is built, handing the guard its routes get their `onRequest` hooks from (`routeOptions`).
 */
export type RegisterRoutes = (app: FastifyInstance, guard: AuthGuard) => void | Promise<void>;

/**
 * The routes of what a signed-in user owns, at `<path>` and `<path>/:id…`: each states its OpenAPI
 * text, its schemas and the service call; this one place reads the user (the guard's), the id (the
 * path's), the body or the query, and answers: 201 with what was created, 204 for a deletion, the
 * status given (200 unless said) with what the call returned. A route that answers otherwise (a
 * file, a CSV) is declared as usual, with `routeOptions`.
 *
 *   const link = ownedRoutes(app, userRoute, { path: '/api/v1/rotating-links', params: idParams });
 *   link.get({ summary: 'A rotating link', response: linkSchema }, (userId, id) => links.get(userId, id));
 */
import type { FastifyInstance, FastifyRequest, HTTPMethods, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../auth/guard.ts';

/** A group's route maker (`routeOptions(guard…, group)`): the guard, tags, security and errors. */
type RouteMaker = (schema: { summary: string; response?: Record<number, unknown> }) => {
  onRequest: onRequestAsyncHookHandler;
  schema: object;
};

/** What every route states of itself in the API document (`errors`: its own, beside its group's). */
type Doc = { summary: string; description?: string; errors?: Record<number, z.ZodType> };
/** Its answer's status, when not 200 (202: accepted, 201: a new thing). */
type Status = { status?: 200 | 201 | 202 };
/** A path below `<path>/:id`, e.g. `/stats` (none: the thing itself). */
type Below = { below?: `/${string}` };

/** `:id` when the resource names no message of its own for a bad one. */
const UUID_PARAMS = z.object({ id: z.uuid() });
/** A 204's answer, as the document says it. */
const NO_BODY = z.null().describe('No body');

type Out<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;
type Answer<R extends z.ZodType> = Promise<z.input<R>>;

export function ownedRoutes(
  app: FastifyInstance,
  route: RouteMaker,
  resource: { path: string; params?: z.ZodType<{ id: string }> },
) {
  const { path, params = UUID_PARAMS } = resource;

  /** One route: `doc` as the document shows it (its `response` the answer's at `status`). */
  function declare(
    method: HTTPMethods,
    url: string,
    doc: Doc & Status & Below & { response?: z.ZodType; params?: z.ZodType },
    status: 200 | 201 | 202 | 204,
    run: (userId: string, request: FastifyRequest) => Promise<unknown>,
  ) {
    const { status: _status, below: _below, response = NO_BODY, errors, ...schema } = doc;
    app.route({
      method,
      url,
      ...route({ ...schema, response: { [status]: response, ...errors } }),
      handler: async (request, reply) => {
        const answer = await run(currentUser(request).id, request);
        return status === 204 ? reply.status(204).send(null) : reply.status(status).send(answer);
      },
    });
  }
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  return {
    /** `POST <path>`: 201 with what `create` made of the body. */
    create<B extends z.ZodType, R extends z.ZodType>(
      doc: Doc & { body: B; response: R },
      create: (userId: string, body: z.output<B>) => Answer<R>,
    ) {
      declare('POST', path, doc, 201, (userId, request) => create(userId, request.body as z.output<B>));
    },

    /** `GET <path>`: the user's things (filtered and paged by the query, when it has one). */
    list<R extends z.ZodType, Q extends z.ZodType | undefined = undefined>(
      doc: Doc & { querystring?: Q; response: R },
      list: (userId: string, query: Out<Q>) => Answer<R>,
    ) {
      declare('GET', path, doc, 200, (userId, request) => list(userId, request.query as Out<Q>));
    },

    /** `GET <path>/:id[below]`: the thing, or what is below it (read with the query, when it has one). */
    get<R extends z.ZodType, Q extends z.ZodType | undefined = undefined>(
      doc: Doc & Below & { querystring?: Q; response: R },
      get: (userId: string, id: string, query: Out<Q>) => Answer<R>,
    ) {
      declare('GET', `${path}/:id${doc.below ?? ''}`, { ...doc, params }, 200, (userId, request) =>
        get(userId, idOf(request), request.query as Out<Q>),
      );
    },

    /** `PATCH <path>/:id`: the thing changed by the body. */
    update<B extends z.ZodType, R extends z.ZodType>(
      doc: Doc & { body: B; response: R },
      update: (userId: string, id: string, body: z.output<B>) => Answer<R>,
    ) {
      declare('PATCH', `${path}/:id`, { ...doc, params }, 200, (userId, request) =>
        update(userId, idOf(request), request.body as z.output<B>),
      );
    },

    /** `DELETE <path>/:id`: 204. */
    remove(doc: Doc, remove: (userId: string, id: string) => Promise<unknown>) {
      declare('DELETE', `${path}/:id`, { ...doc, params }, 204, (userId, request) => remove(userId, idOf(request)));
    },

    /** `POST <path>/:id<below>`: an action on the thing (with the body, when it has one). */
    act<R extends z.ZodType, B extends z.ZodType | undefined = undefined>(
      doc: Doc & Status & { below: `/${string}`; body?: B; response: R },
      act: (userId: string, id: string, body: Out<B>) => Answer<R>,
    ) {
      declare('POST', `${path}/:id${doc.below}`, { ...doc, params }, doc.status ?? 200, (userId, request) =>
        act(userId, idOf(request), request.body as Out<B>),
      );
    },
  };
}

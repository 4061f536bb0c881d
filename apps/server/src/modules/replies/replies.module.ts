/** The replies inbox as the composition root wires it: read and marked through channels, answered through its paid send. */
import type { Clock } from '../../platform/clock/clock.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { ChannelsService, RepliesRepository } from '../channels/index.ts';
import { registerRepliesRoutes } from './replies.routes.ts';
import { createRepliesService, type RepliesService } from './replies.service.ts';

export type RepliesModule = { service: RepliesService; registerRoutes: RegisterRoutes };

export function createRepliesModule(deps: {
  inbox: RepliesRepository;
  channels: Pick<ChannelsService, 'answerReply'>;
  clock: Clock;
}): RepliesModule {
  const service = createRepliesService(deps);
  return { service, registerRoutes: (app, guard) => registerRepliesRoutes(app, { replies: service, guard }) };
}

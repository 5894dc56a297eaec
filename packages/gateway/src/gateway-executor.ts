// The executor a gateway serves through: one of its own, built from the config through core's
// appliers (executorOptionsFrom, policyOptionsFrom) as the CLI's runtime builds its one, or one built
// elsewhere that the gateway joins as the front end of calls from `http`.
import {
  Executor,
  executorOptionsFrom,
  Policy,
  policyOptionsFrom,
  type Approver,
  type Elicitor,
  type ToolRegistry,
  type Workspace,
} from '@toolbelt/core';
import type { GatewayConfig } from './config.js';
import { storeDecisions } from './decisions.js';
import type { EventRecorder } from './events/recorder.js';
import type { StoreLogSink } from './log-sink.js';
import type { GatewayStore } from './store/index.js';

/** How a call over HTTP asks a person: approvals and tools' questions, both answered through the API. */
export interface HttpAsker {
  approver: Approver;
  elicitor: Elicitor;
}

/** What the gateway's own executor is built from. */
export interface OwnExecutorParts {
  registry: ToolRegistry;
  store: GatewayStore;
  config: GatewayConfig;
  policy?: Policy | undefined;
  workspace?: Workspace | undefined;
}

/** The gateway's own executor: the caller's registry, the config's settings, the store's approver and log. */
export function ownExecutor(o: OwnExecutorParts, asker: HttpAsker, log: StoreLogSink): Executor {
  return new Executor({
    registry: o.registry,
    policy: policyOf(o),
    approver: asker.approver,
    elicitors: { http: asker.elicitor },
    log,
    ...(o.workspace ? { workspace: o.workspace } : {}),
    ...executorOptionsFrom(o.config),
  });
}

const POLICY_KEYS = ['mode', 'rules', 'hardDeny'] as const;

/**
 * The caller's policy, else one from the config's mode, rules and hardDeny whose "always" approvals
 * the store keeps. A policy given beside those keys would leave them unread, so that is refused.
 */
function policyOf(o: OwnExecutorParts): Policy {
  const given = POLICY_KEYS.filter((k) => o.config[k] !== undefined);
  if (!o.policy)
    return new Policy({
      ...policyOptionsFrom(o.config),
      store: storeDecisions(o.store),
      ...(o.workspace ? { roots: o.workspace.roots } : {}),
    });
  if (given.length)
    throw new Error(
      `createGateway: pass either \`policy\` or the config's ${given.join(', ')}; beside a policy they would be ignored`,
    );
  return o.policy;
}

/** Joins an executor built elsewhere; returns how to leave it. */
export function joinExecutor(executor: Executor, asker: HttpAsker, log: StoreLogSink): () => void {
  const leaveApprovals = executor.approvals.register('http', asker.approver);
  const leaveQuestions = executor.elicitations.register('http', asker.elicitor);
  const removeLog = executor.logs.add(log);
  return () => {
    leaveApprovals();
    leaveQuestions();
    removeLog();
  };
}

/** The executor's events and the registry's changes, into the event log; returns how to stop. */
export function recordChanges(executor: Executor, registry: ToolRegistry, recorder: EventRecorder): () => void {
  // The approver publishes approval.requested itself, once the store holds the request; requests
  // for calls from other front ends are theirs to show.
  const offEvents = executor.events.on((e) => e.type !== 'approval.requested' && recorder.publish(e));
  const offRegistry = registry.onChange((ch) =>
    recorder.publish({
      type: 'registry.changed',
      change: ch.type,
      name: ch.name,
      ts: Date.now(),
      sessionId: 'gateway',
    }),
  );
  return () => {
    offEvents();
    offRegistry();
  };
}

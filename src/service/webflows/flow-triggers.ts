/**
 * A web-flow's events in the outbox (`case_events` rows with `flow_id`, migration 0019).
 * `workflow.created` is written with the flow: delivery plans and sends its invitations when it
 * handles it, so that a flow's e-mails leave exactly when the flow exists (a replayed request
 * writes none, and sends nothing again); no webhook receives it. `workflow.completed` is the
 * webhook trigger of a flow every person has answered (spec 6, "workflow completed").
 */
export const WORKFLOW_CREATED = 'workflow.created';
export const WORKFLOW_COMPLETED = 'workflow.completed';

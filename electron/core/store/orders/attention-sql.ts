import { sql } from 'kysely';
import { attentionStatusKeys } from '../../../../shared/attention';

const quoted = (keys: readonly string[]) => sql.raw(keys.map((k) => `'${k}'`).join(', '));

/**
 * Live orders in an attention status the shop has not marked seen since their last status change
 * (the statuses written out literally, so SQLite looks them up in orders_company_status).
 */
export const needsAttention = sql<boolean>`(state = 'active' AND status_key IN (${quoted(attentionStatusKeys)}) AND (attention_seen_at IS NULL OR attention_seen_at <> status_changed_at))`;

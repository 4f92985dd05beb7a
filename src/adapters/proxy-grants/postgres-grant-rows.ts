/** The grants' and events' rows as PostgreSQL answers them, and the port's objects they are. */
import type { EndedBy, GrantEvent, GrantEventKind, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';

export const GRANT_COLUMNS = 'id, state, grantor, grantor_name, grantee, grantee_name, categories, valid_from, valid_to, purpose, created, changed, ended_by';

export interface GrantRow {
  id: string;
  state: StoredState;
  grantor: string;
  grantor_name: string | null;
  grantee: string;
  grantee_name: string | null;
  categories: string[];
  valid_from: Date;
  valid_to: Date | null;
  purpose: string | null;
  created: Date;
  changed: Date;
  ended_by: EndedBy | null;
}

export interface EventRow {
  /** bigint: node-postgres answers it as text. */
  seq: string;
  grant_id: string;
  kind: GrantEventKind;
  at: Date;
  by: EndedBy | 'service';
  grantor: string;
  grantee: string;
}

/** A row as the port's grant: absent fields absent (not null), instants in milliseconds. */
export function grantOf(row: GrantRow): StoredGrant {
  return {
    id: row.id, state: row.state, grantor: row.grantor,
    ...(row.grantor_name === null ? {} : { grantorName: row.grantor_name }),
    grantee: row.grantee,
    ...(row.grantee_name === null ? {} : { granteeName: row.grantee_name }),
    categories: row.categories, validFromMs: row.valid_from.getTime(),
    ...(row.valid_to === null ? {} : { validToMs: row.valid_to.getTime() }),
    ...(row.purpose === null ? {} : { purpose: row.purpose }),
    createdMs: row.created.getTime(), changedMs: row.changed.getTime(),
    ...(row.ended_by === null ? {} : { endedBy: row.ended_by }),
  };
}

export function eventOf(row: EventRow): GrantEvent {
  return { seq: Number(row.seq), grantId: row.grant_id, kind: row.kind, atMs: row.at.getTime(), by: row.by, grantor: row.grantor, grantee: row.grantee };
}

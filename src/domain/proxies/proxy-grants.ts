/**
 * The proxy service of EHDS Art. 4(2)(a) (docs/proxies.md): a person gives someone of their choice
 * access to some or all of their record, for a time or until revoked; the invited person accepts or
 * declines; either side revokes; support staff may end one, saying why. Each change is decided here
 * and kept as one step with its event; who may read what through a grant is decided by the delegation
 * check (proxy-delegation.ts), on every request.
 */
import type { GrantParties } from '../../ports/access-log.port.js';
import type { Clock } from '../../ports/clock.port.js';
import type { EndedBy, GrantChange, GrantEventKind, ProxyGrantStore, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';
import { DomainError } from '../errors.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { birthDateOf } from '../identity/personal-identity-number.js';
import { compactToDisplay, epochMsToCompact, localDate } from '../time/local-time.js';
import { checkGrantRequest, type GrantRequest } from './grant-request.js';
import { isOpen, roleOf, statusAt, viewOf, type DatedGrantView, type GrantRole, type ProxySettings } from './grant.js';
import type { PersonFacts } from './people.js';

/**
 * Called once the caller's right to the change is decided and before anything is kept: the request's
 * audit names the grant and its grantor, and a change is audited as an attempt before it is made.
 * `changes` is false when the request repeats what already holds, which keeps nothing.
 */
export type BeforeChange = (grant: StoredGrant, changes: boolean) => Promise<void>;

export interface ProxyGrantsDeps {
  store: ProxyGrantStore;
  clock: Clock;
  zone: string;
  settings: ProxySettings;
  /** What the EHR says of a person, asked only of a person who gives or accepted a grant (never of a number someone typed). */
  facts: (personId: string) => Promise<PersonFacts>;
  /** A new grant id: 128 random bits, hex. */
  newId: () => string;
  /**
   * Support's command (src/start/commands/proxy-support.ts), which has no EHR to ask: each side's name as
   * it was kept, to staff whose every list is audited with its reason. Else only while not protected now.
   */
  namesAsKept?: true;
}

const DAY_MS = 86_400_000;

const notFound = (): DomainError =>
  new DomainError('NOT_FOUND', 'No grant of yours has this id: GET /patients/proxies/ lists the grants you gave and received.');

/** A change a side asks for, by the states it may come from. */
interface Transition {
  kind: GrantEventKind;
  to: StoredState;
  from: readonly StoredState[];
  /** Whose it is to ask. */
  roles: readonly GrantRole[];
}

const ACCEPT: Transition = { kind: 'accepted', to: 'active', from: ['pending'], roles: ['grantee'] };
const DECLINE: Transition = { kind: 'declined', to: 'declined', from: ['pending'], roles: ['grantee'] };
const REVOKE: Transition = { kind: 'revoked', to: 'revoked', from: ['pending', 'active'], roles: ['grantor', 'grantee'] };

const REFUSED_STATE: Readonly<Record<GrantEventKind, string>> = {
  accepted: 'This grant has ended and cannot be accepted: ask the person to share their record with you again.',
  declined: 'This grant is no longer an open invitation: to end it, revoke it (DELETE).',
  revoked: 'This grant has already ended: nothing is shared through it.',
  granted: '', expired: '', lapsed: '',
};

export class ProxyGrants {
  constructor(private readonly deps: ProxyGrantsDeps) {}

  private now(): number {
    return this.deps.clock.now();
  }

  /** The grant as `role` sees it; `namesNow` remembers, for one answer, the name the EHR gives each person now (none if protected). */
  private async view(grant: StoredGrant, role: GrantRole, namesNow = new Map<string, Promise<string | undefined>>()): Promise<DatedGrantView> {
    return viewOf(await this.namedTo(grant, role, namesNow), role, this.now(), this.deps.settings, this.deps.zone);
  }

  /**
   * The grant with the other side's kept name left out unless the EHR, asked now, names them by that same name and says
   * their identity is not protected: a name kept when they gave or accepted it is no licence to show it after their
   * identity became protected (hostile review helper-162, F1); one the EHR cannot say of, or no longer knows, is left
   * out too (re-review helper-191, F1), and so is one it has renamed (a step short of a protection mark): the old name
   * is not asserted as theirs (helper-194, F3), and the new one, which the other side was never given, is never told
   * (helper-195, F1: a grantee renamed after revoking was shown to the grantor by the new name). Only a person who gave
   * or accepted a grant is asked about, never a number someone typed.
   */
  private async namedTo(grant: StoredGrant, role: GrantRole, namesNow: Map<string, Promise<string | undefined>>): Promise<StoredGrant> {
    const other = role === 'grantor' ? grant.grantee : grant.grantor;
    const kept = role === 'grantor' ? grant.granteeName : grant.grantorName;
    if (this.deps.namesAsKept === true || kept === undefined) return grant;
    let named = namesNow.get(other);
    if (named === undefined) {
      named = this.deps.facts(other).then((facts) => (facts.protectedIdentity ? undefined : facts.name), () => undefined);
      namesNow.set(other, named);
    }
    if (await named === kept) return grant;
    if (role === 'grantor') {
      const { granteeName: _hidden, ...shown } = grant;
      return shown;
    }
    const { grantorName: _hidden, ...shown } = grant;
    return shown;
  }

  /** Every grant the person gave or received, oldest first, each as their role sees it. */
  async list(personId: string): Promise<DatedGrantView[]> {
    const grants = await this.deps.store.involving(personId);
    const namesNow = new Map<string, Promise<string | undefined>>();
    return Promise.all(grants.map((g) => this.view(g, roleOf(g, personId) as GrantRole, namesNow)));
  }

  /**
   * The two sides of grant `id` for the grantor's access log (docs/proxies.md#audited-and-shown): the
   * grantee by name once they accepted, and only while their identity is not protected, as every view
   * of the grant names them (re-review helper-165, F1: the log named a grantee protected since).
   */
  async partiesOf(id: string): Promise<GrantParties | undefined> {
    const grant = await this.deps.store.byId(id);
    if (grant === undefined) return undefined;
    const { granteeName } = await this.namedTo(grant, 'grantor', new Map());
    return { grantor: grant.grantor, grantee: grant.grantee, ...(granteeName === undefined ? {} : { granteeName }) };
  }

  /** One grant of the person's; 404 for one that does not exist or is someone else's. */
  async get(personId: string, id: string): Promise<DatedGrantView> {
    const grant = await this.own(personId, id);
    return this.view(grant, roleOf(grant, personId) as GrantRole);
  }

  /** `grantor` gives a grant (201). */
  async give(grantor: string, request: GrantRequest, before: BeforeChange): Promise<DatedGrantView> {
    const nowMs = this.now();
    const { settings, zone } = this.deps;
    if (!hasReachedAge(birthDateOf(grantor), 18, localDate(nowMs, zone))) {
      throw new DomainError('FORBIDDEN', 'You must be 18 or over to share your record with someone else.');
    }
    const checked = checkGrantRequest(request, grantor, nowMs, zone, settings);
    const facts = await this.deps.facts(grantor);
    if (facts.protectedIdentity) {
      throw new DomainError('FORBIDDEN', 'Your identity is protected, so your record cannot be shared through this service: ask your care provider.');
    }
    const grant: StoredGrant = {
      id: this.deps.newId(), state: 'pending', grantor, ...(facts.name === undefined ? {} : { grantorName: facts.name }),
      grantee: checked.grantee, categories: checked.categories, validFromMs: checked.validFromMs,
      ...(checked.validToMs === undefined ? {} : { validToMs: checked.validToMs }),
      ...(checked.purpose === undefined ? {} : { purpose: checked.purpose }),
      createdMs: nowMs, changedMs: nowMs,
    };
    await before(grant, true);
    await this.deps.store.create(grant, (given) => {
      const open = given.filter((g) => isOpen(g, nowMs, settings));
      if (open.some((g) => g.grantee === grant.grantee)) {
        throw new DomainError('CONFLICT', 'You already share your record with this person, or have invited them: change what they see by ending that grant and giving a new one.');
      }
      if (open.length >= settings.maxGrants) {
        throw new DomainError('CONFLICT', `You can share your record with at most ${settings.maxGrants} people at once; end a grant first.`);
      }
      admitToday(given, grant, settings, zone);
    });
    return this.view(grant, 'grantor');
  }

  /** The grantee accepts a pending grant; their name, from the EHR, is known from now on. */
  accept(personId: string, id: string, before: BeforeChange): Promise<DatedGrantView> {
    return this.transition(personId, id, ACCEPT, before);
  }

  decline(personId: string, id: string, before: BeforeChange): Promise<DatedGrantView> {
    return this.transition(personId, id, DECLINE, before);
  }

  revoke(personId: string, id: string, before: BeforeChange): Promise<DatedGrantView> {
    return this.transition(personId, id, REVOKE, before);
  }

  /** Support staff end a pending or active grant; undefined for an id that does not exist. */
  async revokeAsSupport(id: string, before: BeforeChange): Promise<DatedGrantView | undefined> {
    const grant = await this.deps.store.byId(id);
    if (grant === undefined) return undefined;
    return this.change(grant, 'grantor', REVOKE, 'support', before);
  }

  private async own(personId: string, id: string): Promise<StoredGrant> {
    const grant = await this.deps.store.byId(id);
    if (grant === undefined || roleOf(grant, personId) === undefined) throw notFound();
    return grant;
  }

  private async transition(personId: string, id: string, transition: Transition, before: BeforeChange): Promise<DatedGrantView> {
    const grant = await this.own(personId, id);
    const role = roleOf(grant, personId) as GrantRole;
    if (!transition.roles.includes(role)) {
      throw new DomainError('FORBIDDEN', 'Only the person a grant was given to can accept or decline it; you can revoke it (DELETE).');
    }
    return this.change(grant, role, transition, role, before);
  }

  private async change(grant: StoredGrant, role: GrantRole, transition: Transition, by: EndedBy, before: BeforeChange): Promise<DatedGrantView> {
    const nowMs = this.now();
    const { status } = statusAt(grant, nowMs, this.deps.settings);
    // Asked again: the same object, nothing kept again.
    if (status === transition.to && grant.state === transition.to) {
      await before(grant, false);
      return this.view(grant, role);
    }
    if (!transition.from.includes(status)) {
      await before(grant, false);
      throw new DomainError('CONFLICT', REFUSED_STATE[transition.kind]);
    }
    const change: GrantChange = { state: transition.to, changedMs: nowMs };
    if (transition.kind !== 'accepted') change.endedBy = by;
    else {
      // A protected identity's name is told to nobody, the grantor included: they see the number they typed.
      const facts = await this.deps.facts(grant.grantee);
      if (facts.name !== undefined && !facts.protectedIdentity) change.granteeName = facts.name;
    }
    await before(grant, true);
    const changed = await this.deps.store.change(grant.id, transition.from, change, {
      grantId: grant.id, kind: transition.kind, atMs: nowMs, by, grantor: grant.grantor, grantee: grant.grantee,
    });
    if (changed === undefined) {
      // Another request changed it first: answer what holds now.
      const now = await this.deps.store.byId(grant.id);
      if (now === undefined) throw notFound();
      if (now.state === transition.to) return this.view(now, role);
      throw new DomainError('CONFLICT', REFUSED_STATE[transition.kind]);
    }
    return this.view(changed, role);
  }

  /**
   * Records the lapses and expiries time has made since the last time (each once, across instances):
   * `record` is called for each before it is kept, so the audit trail has it first. Answers how many.
   */
  async settleDue(record: (grant: StoredGrant, kind: 'lapsed' | 'expired', atMs: number) => Promise<void>): Promise<number> {
    const { store, settings } = this.deps;
    const settled = await store.inTurn(async () => {
      const nowMs = this.now();
      let count = 0;
      for (const grant of await store.due(nowMs, nowMs - settings.invitationDays * DAY_MS)) {
        const { status, sinceMs } = statusAt(grant, nowMs, settings);
        if (status !== 'lapsed' && status !== 'expired') continue;
        await record(grant, status, sinceMs);
        const from: StoredState = status === 'lapsed' ? 'pending' : 'active';
        const kept = await store.change(grant.id, [from], { state: status, changedMs: sinceMs }, {
          grantId: grant.id, kind: status, atMs: sinceMs, by: 'service', grantor: grant.grantor, grantee: grant.grantee,
        });
        if (kept !== undefined) count++;
      }
      return count;
    });
    return settled ?? 0;
  }
}

/**
 * Grants given in the last 24 hours count whatever became of them: PROXY_MAX_GRANTS counts the open
 * ones alone, so giving and revoking again and again never met it, and each ended invitation stays in
 * its grantee's list for good (hostile reviews helper-161 F1, helper-162 F3: 500 in 65 s from one
 * account). Ending a grant and giving a new one, the way to change what someone sees, stays open.
 */
function admitToday(given: readonly StoredGrant[], grant: StoredGrant, settings: ProxySettings, zone: string): void {
  const today = given.filter((g) => g.createdMs > grant.createdMs - DAY_MS);
  // When enough of them have left the 24 hours for one more to be under `limit`, to the next whole minute, in local
  // time (re-review helper-165, F6: "tomorrow" was no time; helper-166, F6: the first to leave is not enough under a lowered limit).
  const again = (counted: readonly StoredGrant[], limit: number): string => {
    const times = counted.map((g) => g.createdMs).sort((a, b) => a - b);
    const leaving = times[times.length - limit] ?? times[0] ?? grant.createdMs;
    return compactToDisplay(epochMsToCompact(Math.ceil((leaving + DAY_MS) / 60_000) * 60_000, zone));
  };
  const toThem = today.filter((g) => g.grantee === grant.grantee);
  if (toThem.length >= settings.maxGrantsToOnePerDay) {
    throw new DomainError('CONFLICT', `You have shared your record with this person ${settings.maxGrantsToOnePerDay} ${settings.maxGrantsToOnePerDay === 1 ? 'time' : 'times'} in the last 24 hours, as often as a day allows: you can again from ${again(toThem, settings.maxGrantsToOnePerDay)}.`);
  }
  if (today.length >= settings.maxGrantsPerDay) {
    throw new DomainError('CONFLICT', `You have given ${settings.maxGrantsPerDay} ${settings.maxGrantsPerDay === 1 ? 'grant' : 'grants'} in the last 24 hours, as many as a day allows: you can again from ${again(today, settings.maxGrantsPerDay)}.`);
  }
}

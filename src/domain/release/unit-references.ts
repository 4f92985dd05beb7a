/**
 * Whether a record names a listed care unit or access zone anywhere in it. The four layouts spell
 * their unit references differently (`UnitID`, `unitID`, `HeadCareproviderUnitID`, inside CareUnit,
 * AccessZoneUnit, a care provider's unit, `Units.Unit[]` ...), and a reference the region lists must
 * withhold the record wherever it stands, so the record is walked whole instead of field by field.
 */

export interface ListedIdentifier {
  root: string;
  extension: string;
}

export interface ListedUnits {
  unitIds: readonly ListedIdentifier[];
  accessZoneIds: readonly ListedIdentifier[];
}

const isIdentifierLike = (v: unknown): v is { root?: unknown; extension?: unknown } => typeof v === 'object' && v !== null;

function listed(v: unknown, list: readonly ListedIdentifier[]): boolean {
  if (!isIdentifierLike(v) || typeof v.root !== 'string' || typeof v.extension !== 'string') return false;
  const root = v.root.trim();
  const extension = v.extension.trim();
  return list.some((l) => l.root === root && l.extension === extension);
}

/** `...UnitID` in any case (UnitID, unitID, HeadCareproviderUnitID), never UnitLocalID or unitInternalID. */
const isUnitIdKey = (key: string): boolean => key.toLowerCase().endsWith('unitid');
const isAccessZoneKey = (key: string): boolean => key.toLowerCase() === 'accesszoneid';

export function namesListedUnit(value: unknown, units: ListedUnits): boolean {
  if (Array.isArray(value)) return value.some((v) => namesListedUnit(v, units));
  if (typeof value !== 'object' || value === null) return false;
  for (const [key, v] of Object.entries(value)) {
    if (isUnitIdKey(key) && listed(v, units.unitIds)) return true;
    if (isAccessZoneKey(key) && (Array.isArray(v) ? v : [v]).some((zone) => listed(zone, units.accessZoneIds))) return true;
    if (namesListedUnit(v, units)) return true;
  }
  return false;
}

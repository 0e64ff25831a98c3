/**
 * Offline OCSF class validity (AEP-0005 §5 item 6) against the pinned class subset
 * (`ocsf/ocsf-classes.json`): only class attributes, enum-legal ids, the category of the
 * class, the derived `type_uid`, and the `security_control` profile whenever a record
 * asserts a disposition. Pure.
 */

interface OcsfClass {
  category_uid?: unknown;
  attributes?: unknown;
  activity?: unknown;
  severity?: unknown;
  status?: unknown;
  disposition?: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function enumHas(table: unknown, id: unknown): boolean {
  return isObject(table) && (typeof id === 'number' || typeof id === 'string') && Object.hasOwn(table, String(id));
}

/** Every way `record` breaks the pinned class subset; empty when it is class-valid. */
export function ocsfClassProblems(record: unknown, classesFile: unknown): string[] {
  if (!isObject(record)) return [`record is ${JSON.stringify(record)}, not an object`];
  const classes = isObject(classesFile) && isObject(classesFile.classes) ? classesFile.classes : {};
  const uid = record.class_uid;
  const cls = classes[String(uid)] as OcsfClass | undefined;
  if (!isObject(cls)) return [`class_uid ${JSON.stringify(uid)} is not one of the pinned classes (${Object.keys(classes).join(', ')})`];
  const problems: string[] = [];
  const allowed = new Set(Array.isArray(cls.attributes) ? cls.attributes : []);
  for (const key of Object.keys(record)) {
    if (!allowed.has(key)) problems.push(`attribute "${key}" is not in class ${String(uid)}`);
  }
  if (record.category_uid !== cls.category_uid) {
    problems.push(`category_uid ${JSON.stringify(record.category_uid)} should be ${JSON.stringify(cls.category_uid)}`);
  }
  if (!enumHas(cls.activity, record.activity_id)) problems.push(`activity_id ${JSON.stringify(record.activity_id)} is not a legal value`);
  if (typeof uid === 'number' && typeof record.activity_id === 'number' && record.type_uid !== uid * 100 + record.activity_id) {
    problems.push(`type_uid ${JSON.stringify(record.type_uid)} should be ${uid * 100 + record.activity_id} (class_uid * 100 + activity_id)`);
  }
  if (!enumHas(cls.severity, record.severity_id)) problems.push(`severity_id ${JSON.stringify(record.severity_id)} is not a legal value`);
  if ('status_id' in record && !enumHas(cls.status, record.status_id)) {
    problems.push(`status_id ${JSON.stringify(record.status_id)} is not a legal value`);
  }
  if ('disposition_id' in record) {
    if (!enumHas(cls.disposition, record.disposition_id)) problems.push(`disposition_id ${JSON.stringify(record.disposition_id)} is not a legal value`);
    const meta = isObject(record.metadata) ? record.metadata : {};
    if (!Array.isArray(meta.profiles) || !meta.profiles.includes('security_control')) {
      problems.push('asserts disposition_id without declaring metadata.profiles ["security_control"]');
    }
  }
  const version = isObject(classesFile) ? classesFile.version : undefined;
  if (typeof version === 'string' && (!isObject(record.metadata) || record.metadata.version !== version)) {
    problems.push(`metadata.version should be the pinned OCSF version ${version}`);
  }
  return problems;
}

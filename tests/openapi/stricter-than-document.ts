/**
 * Where a schema of ours refuses what a document's schema allows, read node by node over the properties and
 * items both declare: a name ours requires and the document does not, a null the document allows, a type it
 * allows that ours does not (an integer is a number), a bound (minItems, minLength, minimum, maxLength, maxItems,
 * maximum), a format, an enum or a const the document does not give. A node the document composes (allOf, oneOf,
 * anyOf) is not compared further: what it allows is not one shape.
 */
type Node = {
  type?: string | string[];
  nullable?: boolean;
  required?: unknown;
  properties?: Record<string, Node>;
  items?: Node;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  allOf?: unknown[];
  oneOf?: unknown[];
  anyOf?: unknown[];
  additionalProperties?: unknown;
} & Record<string, unknown>;

const BOUNDS = ['minItems', 'minLength', 'minimum', 'exclusiveMinimum', 'maxItems', 'maxLength', 'maximum', 'exclusiveMaximum'];

/**
 * The types a node allows (undefined: any), null included when the document says nullable. A node with
 * properties or required names and no type is read as an object: what every client built from it sends.
 */
function typesOf(n: Node): Set<string> | undefined {
  if (n.type === undefined) return n.properties || Array.isArray(n.required) ? new Set(['object']) : undefined;
  const t = new Set(Array.isArray(n.type) ? n.type : [n.type]);
  if (n.nullable === true) t.add('null');
  return t;
}

function typeProblems(ours: Node, doc: Node, at: string): string[] {
  const mine = typesOf(ours);
  const theirs = typesOf(doc);
  if (!mine) return [];
  if (!theirs) return [`${at}: ours allows only ${[...mine].join('|')}; the document any type`];
  const refused = [...theirs].filter((t) => !mine.has(t) && !(t === 'integer' && mine.has('number')));
  return refused.length ? [`${at}: the document allows ${refused.join('|')}; ours ${[...mine].join('|')}`] : [];
}

function keywordProblems(ours: Node, doc: Node, at: string): string[] {
  const out: string[] = [];
  const docRequired = new Set(Array.isArray(doc.required) ? (doc.required as string[]) : []);
  for (const name of Array.isArray(ours.required) ? (ours.required as string[]) : [])
    if (!docRequired.has(name)) out.push(`${at}: ours requires "${name}"; the document does not`);
  for (const k of BOUNDS)
    if (ours[k] !== undefined && ours[k] !== doc[k])
      out.push(`${at}: ours has ${k} ${String(ours[k])}; the document ${String(doc[k] ?? 'none')}`);
  if (ours.format !== undefined && ours.format !== doc.format)
    out.push(`${at}: ours has format ${ours.format}; the document ${doc.format ?? 'none'}`);
  if (ours.enum !== undefined && JSON.stringify(ours.enum) !== JSON.stringify(doc.enum))
    out.push(`${at}: ours has an enum the document does not give`);
  if (ours.const !== undefined && ours.const !== doc.const) out.push(`${at}: ours has a const the document does not give`);
  if (ours.additionalProperties === false && doc.additionalProperties !== false) out.push(`${at}: ours refuses other properties`);
  return out;
}

export function stricterThanDocument(ours: Node | undefined, doc: Node | undefined, at = ''): string[] {
  if (!ours || !doc) return [];
  const where = at || '/';
  const out = [...typeProblems(ours, doc, where), ...keywordProblems(ours, doc, where)];
  if (doc.allOf || doc.oneOf || doc.anyOf) return out;
  for (const [name, sub] of Object.entries(ours.properties ?? {}))
    out.push(...stricterThanDocument(sub, doc.properties?.[name], `${at}/${name}`));
  if (ours.items && doc.items) out.push(...stricterThanDocument(ours.items, doc.items, `${at}[]`));
  return out;
}

/**
 * What the server derives from an object's value before hashing and storing it
 * (docs/api/core.md §2 "ObjSchema"): its kind (op or object) and its base and leaf classes, and
 * the class stamping `builtin_object_class` asks for. Mirrors weave's object_class_util.
 */
import { BadRequestError } from '../../errors.js';
import { BUILTIN_CLASSES } from './builtinClasses.js';
import { checkModel, dumpModel } from './builtinModels.js';
import { isLosslessObject, type LosslessObject, type LosslessValue } from './losslessJson.js';

export interface ProcessedObject {
  val: LosslessValue;
  kind: 'op' | 'object';
  baseObjectClass: string | null;
  leafObjectClass: string | null;
}

const BASE_OBJECT_CLASS_NAMES = ['BaseObject', 'Object'];

/** `"op"` when the value's weave type is `Op` (SDKs store ops as `CustomWeaveType` files). */
export function objectKind(val: LosslessValue): 'op' | 'object' {
  if (!isLosslessObject(val) || !val.has('_type')) return 'object';
  const weaveType = val.get('weave_type');
  const type = val.has('weave_type') ? (isLosslessObject(weaveType) ? weaveType.get('type') : undefined) : val.get('_type');
  return type === 'Op' ? 'op' : 'object';
}

/**
 * Leaf and base class of a `weave.Object`/`BaseObject` value: `_bases` ends with
 * `[..., "Object" | "BaseObject", "BaseModel"]`; the leaf is `_class_name` and the base is the
 * class right above Object/BaseObject (the leaf itself when there is none).
 */
export function objectClasses(val: LosslessValue): { base: string; leaf: string } | null {
  if (!isLosslessObject(val)) return null;
  const bases = val.get('_bases');
  if (!Array.isArray(bases) || bases.length < 2) return null;
  if (bases[bases.length - 1] !== 'BaseModel' || !BASE_OBJECT_CLASS_NAMES.includes(bases[bases.length - 2] as string)) {
    return null;
  }
  const leaf = val.get('_class_name');
  if (typeof leaf !== 'string') return null;
  const above = bases.length > 2 ? bases[bases.length - 3] : leaf;
  return { leaf, base: typeof above === 'string' ? above : leaf };
}

/** Applies `builtin_object_class` (if any) and derives kind and classes; 400 on a mismatch. */
export function processObjectVal(val: LosslessValue, builtinObjectClass: string | null): ProcessedObject {
  const classes = objectClasses(val);
  if (builtinObjectClass != null) {
    if (!isLosslessObject(val)) throw new BadRequestError('object_class cannot be provided for non-dict objects');
    if (classes && classes.leaf !== builtinObjectClass) {
      throw new BadRequestError(`object_class must match val's defined object class: ${classes.leaf} != ${builtinObjectClass}`);
    }
    if (!classes) {
      const spec = BUILTIN_CLASSES.get(builtinObjectClass);
      val = spec ? dumpModel(val, spec) : stampBuiltinClass(val, builtinObjectClass);
    }
  }
  // A value that already names a class Weft knows is checked, not rewritten (as the reference).
  const known = classes ? BUILTIN_CLASSES.get(classes.base) : undefined;
  if (known) checkModel(val, known);
  const stamped = objectClasses(val);
  return { val, kind: objectKind(val), baseObjectClass: stamped?.base ?? null, leafObjectClass: stamped?.leaf ?? null };
}

/**
 * The reference validates the value with the named server-side pydantic class and stores its
 * dump: `_type`, the fields in declaration order, `_class_name`, `_bases`. For classes Weft does
 * not describe (builtinClasses.ts) we accept any name and stamp the
 * value as a direct `BaseObject` subclass, filling in BaseObject's own optional `name` and
 * `description`. Defaults of subclass fields the client left out are not filled in, so such
 * an object's digest can differ from the hosted server's.
 */
function stampBuiltinClass(val: LosslessObject, className: string): LosslessObject {
  const out: LosslessObject = new Map([['_type', className]]);
  out.set('name', val.get('name') ?? null);
  out.set('description', val.get('description') ?? null);
  for (const [k, v] of val) if (k !== '_type' && k !== '_class_name' && k !== '_bases') out.set(k, v);
  out.set('_class_name', className);
  out.set('_bases', ['BaseObject', 'BaseModel']);
  return out;
}

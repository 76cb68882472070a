//! Boogie's types, resolved: what resolution makes of an [`ast::Type`](crate::ast::Type) and
//! what type checking infers for every expression.
//!
//! The model is Boogie's `AbsyType.cs`: basic types, bit-vector and float types, applications
//! of user type constructors, bound type variables, polymorphic map types, synonym annotations
//! (kept so that messages print the name the user wrote, as Boogie does) and, during
//! inference only, proxies (`?`) that unification fills in.
//!
//! Types are immutable trees shared with `Rc`: they are small, compared structurally, and
//! cloning one is a reference-count increment.

use std::fmt;
use std::rc::Rc;

use crate::ast::Symbol;

/// A user type constructor (`type C a;`), synonym (`type S a = T;`) or datatype: an index into
/// [`super::Symbols::type_ctors`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeCtorId(pub u32);

/// One type-variable binder (of a function, procedure, implementation, map type, quantifier,
/// lambda or synonym): an index into [`super::Symbols::type_vars`]. Two variables with the same
/// name bound in different places are different variables, as in Boogie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeVarId(pub u32);

/// An inference variable (Boogie's `TypeProxy`, `BvTypeProxy`, `MapTypeProxy`), owned by the
/// type checker's unifier. Never present in a finished [`super::TypedProgram`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId(pub u32);

impl ProxyId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Bool,
    Int,
    Real,
    /// Rounding modes of the float theory.
    RMode,
    String,
    RegEx,
    /// `bvN` (N may be 0).
    Bv(u32),
    /// `float<significand>e<exponent>`
    Float {
        significand: u32,
        exponent: u32,
    },
    /// `C T1 .. Tn` for a type constructor or datatype (never a synonym: see [`Type::Synonym`]).
    Ctor(TypeCtorId, Rc<[Type]>),
    /// A bound type variable.
    Var(TypeVarId),
    /// `<a>[T1, T2]R`
    Map(Rc<MapType>),
    /// `S T1 .. Tn` where `S` is a synonym, with its expansion. Every operation but printing
    /// looks through it (see [`Type::expanded`]).
    Synonym(Rc<SynonymType>),
    /// An inference variable; only while type checking.
    Proxy(ProxyId),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapType {
    pub type_params: Vec<TypeVarId>,
    pub args: Vec<Type>,
    pub result: Type,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SynonymType {
    pub synonym: TypeCtorId,
    pub args: Vec<Type>,
    pub expansion: Type,
}

impl Type {
    /// The type with synonym annotations at the top removed.
    pub fn expanded(&self) -> &Type {
        let mut ty = self;
        while let Type::Synonym(s) = ty {
            ty = &s.expansion;
        }
        ty
    }

    /// The type with every synonym annotation removed, at every depth (a synonym is only how
    /// a type was written: `Field (Set Ref)` and `Field [Ref]bool` are one type).
    pub fn deep_expanded(&self) -> Type {
        match self.expanded() {
            Type::Ctor(c, args) if args.iter().any(has_synonym) => {
                Type::Ctor(*c, args.iter().map(Type::deep_expanded).collect())
            }
            Type::Map(m) if m.args.iter().chain([&m.result]).any(has_synonym) => Type::Map(Rc::new(MapType {
                type_params: m.type_params.clone(),
                args: m.args.iter().map(Type::deep_expanded).collect(),
                result: m.result.deep_expanded(),
            })),
            t => t.clone(),
        }
    }

    pub fn is_bool(&self) -> bool {
        matches!(self.expanded(), Type::Bool)
    }
}

fn has_synonym(t: &Type) -> bool {
    match t {
        Type::Synonym(_) => true,
        Type::Ctor(_, args) => args.iter().any(has_synonym),
        Type::Map(m) => m.args.iter().chain([&m.result]).any(has_synonym),
        _ => false,
    }
}

/// What [`Type`]'s `Display` needs to print names: the names of type constructors and type
/// variables. [`super::Symbols`] implements it.
pub trait TypeNames {
    fn type_ctor_name(&self, id: TypeCtorId) -> Symbol;
    fn type_var_name(&self, id: TypeVarId) -> Symbol;
    /// What a proxy prints as. The type checker's view knows its bindings; without it a proxy
    /// prints as `?`.
    fn proxy(&self, _id: ProxyId) -> ProxyDisplay {
        ProxyDisplay::Unknown
    }
}

/// How [`Type::display`] shows a proxy (Boogie's `TypeProxy.Emit`, `MapTypeProxy.Emit`).
pub enum ProxyDisplay {
    /// `?`
    Unknown,
    /// Bound: printed as what it stands for.
    Bound(Type),
    /// An unbound map proxy of this arity: `[?, ?]?`.
    Map(usize),
}

impl Type {
    /// The type as Boogie prints it in messages (`Type.ToString`, i.e. `Emit` with binding
    /// strength 0): `int`, `bv32`, `C a (D b)`, `<a>[Field a]a`, `?` for a proxy.
    pub fn display<'a>(&'a self, names: &'a dyn TypeNames) -> impl fmt::Display + 'a {
        DisplayType { ty: self, names, strength: 0 }
    }
}

struct DisplayType<'a> {
    ty: &'a Type,
    names: &'a dyn TypeNames,
    /// Boogie's `contextBindingStrength`: 0 at the top and inside a map's brackets, 2 for a
    /// constructor's arguments but the last, which gets 1 (so a map type there needs none).
    strength: u8,
}

impl<'a> DisplayType<'a> {
    fn sub(&self, ty: &'a Type, strength: u8) -> DisplayType<'a> {
        DisplayType { ty, names: self.names, strength }
    }

    /// `C a b` (Boogie's `CtorType.EmitCtorType`): parenthesized when it has arguments and the
    /// context binds tighter than 0.
    fn applied(&self, f: &mut fmt::Formatter<'_>, name: Symbol, args: &'a [Type]) -> fmt::Result {
        let paren = !args.is_empty() && self.strength > 0;
        if paren {
            f.write_str("(")?;
        }
        f.write_str(&name)?;
        for (i, a) in args.iter().enumerate() {
            let strength = if i + 1 == args.len() { 1 } else { 2 };
            write!(f, " {}", self.sub(a, strength))?;
        }
        if paren {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl fmt::Display for DisplayType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Real => f.write_str("real"),
            Type::RMode => f.write_str("rmode"),
            Type::String => f.write_str("string"),
            Type::RegEx => f.write_str("regex"),
            Type::Bv(n) => write!(f, "bv{n}"),
            Type::Float { significand, exponent } => write!(f, "float{significand}e{exponent}"),
            Type::Var(v) => write!(f, "{}", self.names.type_var_name(*v)),
            Type::Proxy(p) => match self.names.proxy(*p) {
                ProxyDisplay::Unknown => f.write_str("?"),
                ProxyDisplay::Bound(t) => {
                    write!(f, "{}", DisplayType { ty: &t, names: self.names, strength: self.strength })
                }
                ProxyDisplay::Map(arity) => {
                    f.write_str("[")?;
                    for i in 0..arity {
                        f.write_str(if i == 0 { "?" } else { ", ?" })?;
                    }
                    f.write_str("]?")
                }
            },
            Type::Ctor(c, args) => self.applied(f, self.names.type_ctor_name(*c), args),
            Type::Synonym(s) => self.applied(f, self.names.type_ctor_name(s.synonym), &s.args),
            Type::Map(m) => {
                // Boogie's MapType.Emit: binding strength 1.
                let paren = self.strength > 1;
                if paren {
                    f.write_str("(")?;
                }
                if !m.type_params.is_empty() {
                    f.write_str("<")?;
                    for (i, v) in m.type_params.iter().enumerate() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        write!(f, "{}", self.names.type_var_name(*v))?;
                    }
                    f.write_str(">")?;
                }
                f.write_str("[")?;
                for (i, a) in m.args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", self.sub(a, 0))?;
                }
                f.write_str("]")?;
                write!(f, "{}", self.sub(&m.result, 0))?;
                if paren {
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

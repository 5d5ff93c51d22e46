#include "compound_literals.hpp"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <vector>

#include "facts.hpp"

namespace privatizer {
namespace {

/// One literal to name, and the static-storage variable whose initializer holds it.
struct Literal {
  const clang::CompoundLiteralExpr* expr = nullptr;
  const clang::VarDecl* owner = nullptr;
  unsigned begin = 0, end = 0; ///< file offsets of the literal, end past its last token
  std::string name;
};

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  explicit Finder(clang::ASTContext& ctx) : ctx_(ctx) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(clang::FunctionDecl* f) {
    ++depth_;
    const bool ok = RecursiveASTVisitor::TraverseFunctionDecl(f);
    --depth_;
    return ok;
  }

  bool TraverseVarDecl(clang::VarDecl* v) {
    if (!v->hasGlobalStorage() || !v->hasInit()) return RecursiveASTVisitor::TraverseVarDecl(v);
    const clang::VarDecl* outer = owner_;
    const int outer_depth = owner_depth_;
    owner_ = v;
    owner_depth_ = depth_;
    const bool ok = RecursiveASTVisitor::TraverseVarDecl(v);
    owner_ = outer;
    owner_depth_ = outer_depth;
    return ok;
  }

  bool VisitCompoundLiteralExpr(clang::CompoundLiteralExpr* e) {
    // Static storage: in the initializer of a static-storage variable, not in a function
    // written inside it.
    if (!owner_ || owner_depth_ != depth_) return true;
    if (!in_user_file(ctx_.getSourceManager(), e->getBeginLoc())) return true;
    // C++ (a GNU extension there): only a file-scope array literal is an object of its own
    // (an lvalue); the others are temporaries.
    if (!e->isLValue() || copied(e)) return true;
    found.push_back({e, owner_, 0, 0, {}});
    return true;
  }

  std::vector<Literal> found;

private:
  /// Only its value is used (the initializer copies it): no one can reach its object. (An
  /// element of an initializer list has two parents: the list as written, and the conversion
  /// of the list as Clang completed it.)
  bool copied(const clang::Expr* e) {
    for (const clang::DynTypedNode& parent : ctx_.getParents(*e)) {
      if (const auto* paren = parent.get<clang::ParenExpr>())
        if (copied(paren)) return true;
      if (const auto* cast = parent.get<clang::ImplicitCastExpr>())
        if (cast->getCastKind() == clang::CK_LValueToRValue) return true;
    }
    return false;
  }

  clang::ASTContext& ctx_;
  int depth_ = 0;
  const clang::VarDecl* owner_ = nullptr;
  int owner_depth_ = 0;
};

} // namespace

std::map<std::string, std::string> name_compound_literals(clang::ASTContext& ctx, bool may_name,
                                                          Diagnostics& diag) {
  const clang::SourceManager& sm = ctx.getSourceManager();
  const clang::LangOptions& lo = ctx.getLangOpts();
  Finder finder(ctx);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  if (finder.found.empty()) return {};

  struct File {
    std::vector<Literal> literals;
  };
  std::map<clang::FileID, File> files;
  int refused = 0;
  const auto end_of = [&](clang::SourceLocation last) {
    return sm.getFileOffset(clang::Lexer::getLocForEndOfToken(last, 0, sm, lo));
  };
  int counter = 0;
  for (Literal l : finder.found) {
    const clang::SourceLocation b = l.expr->getBeginLoc(), e = l.expr->getEndLoc();
    const clang::SourceLocation start = l.owner->getBeginLoc();
    if (!may_name || b.isMacroID() || e.isMacroID() || start.isMacroID() ||
        l.expr->getInitializer()->getBeginLoc().isMacroID() || sm.getFileID(b) != sm.getFileID(e) ||
        sm.getFileID(b) != sm.getFileID(start)) {
      diag.cannot(sm.getExpansionLoc(b),
                  "compound literal in the initializer of " + l.owner->getNameAsString(),
                  "it is written by a macro expansion, and all ranks would share its object; "
                  "write the literal out, or define a named static variable and use its name");
      ++refused;
      continue;
    }
    l.begin = sm.getFileOffset(b);
    l.end = end_of(e);
    l.name = "mpisim_literal_" + std::to_string(++counter);
    files[sm.getFileID(b)].literals.push_back(l);
  }
  if (refused) return {};

  std::map<std::string, std::string> out;
  for (auto& [fid, file] : files) {
    const llvm::StringRef text = sm.getBufferData(fid);
    std::vector<Literal>& ls = file.literals;
    // Innermost first: a literal's definition names the literals written inside it.
    std::sort(ls.begin(), ls.end(), [](const Literal& a, const Literal& b) {
      return a.end != b.end ? a.end < b.end : a.begin > b.begin;
    });
    const auto inside = [](const Literal& in, const Literal& out) {
      return in.begin >= out.begin && in.end <= out.end && &in != &out;
    };
    /// `[from, to)` of the file, with the outermost literals inside it replaced by their names.
    const auto with_names = [&](unsigned from, unsigned to, const Literal* within) {
      std::string s;
      unsigned at = from;
      for (const Literal& l : ls) { // sorted by end: the direct children in order
        if (l.begin < from || l.end > to || (within && !inside(l, *within))) continue;
        bool nested = false;
        for (const Literal& o : ls)
          if (&o != &l && inside(l, o) && o.begin >= from && o.end <= to &&
              (!within || inside(o, *within)))
            nested = true;
        if (nested || l.begin < at) continue;
        s += text.substr(at, l.begin - at).str() + l.name;
        at = l.end;
      }
      return s + text.substr(at, to - at).str();
    };
    // Definitions before each owner's declaration, in order: offset of the declaration -> text.
    std::map<unsigned, std::string> definitions;
    for (const Literal& l : ls) {
      const clang::CompoundLiteralExpr* e = l.expr;
      // The type name: between the parentheses (the type's own range leaves out a leading
      // qualifier).
      const unsigned type_begin = sm.getFileOffset(e->getLParenLoc()) + 1;
      const unsigned init_begin = sm.getFileOffset(e->getInitializer()->getBeginLoc());
      const unsigned type_end = static_cast<unsigned>(text.substr(0, init_begin).rfind(')'));
      std::string& d = definitions[sm.getFileOffset(l.owner->getBeginLoc())];
      std::string type = text.substr(type_begin, type_end - type_begin).str();
      // An array of unknown bound gets the literal's: the variable's type is complete before
      // its initializer (C++ declares it before defining it).
      if (const auto a =
              e->getTypeSourceInfo()->getTypeLoc().getAs<clang::IncompleteArrayTypeLoc>())
        if (const clang::ConstantArrayType* c = ctx.getAsConstantArrayType(e->getType()))
          if (a.getLBracketLoc().isFileID() && a.getRBracketLoc().isFileID()) {
            const unsigned lb = sm.getFileOffset(a.getLBracketLoc());
            const unsigned rb = sm.getFileOffset(a.getRBracketLoc());
            if (type_begin <= lb && lb < rb && rb < type_end)
              type = text.substr(type_begin, lb + 1 - type_begin).str() +
                     std::to_string(c->getSize().getZExtValue()) +
                     text.substr(rb, type_end - rb).str();
          }
      d += "static __typeof__(" + type + ") " + l.name + " = " + with_names(init_begin, l.end, &l) +
           "; ";
    }
    // The file with the outermost literals replaced (their line breaks kept, so that the lines
    // after them keep their numbers) and the definitions inserted.
    std::string result;
    unsigned at = 0;
    std::vector<std::pair<unsigned, std::string>> edits; // offset -> inserted text
    for (const auto& [offset, defs] : definitions) {
      std::string ins = defs;
      if (ins.find('\n') != std::string::npos) {
        // The definitions' own line breaks: the declaration keeps its line number.
        const unsigned line = sm.getLineNumber(fid, offset);
        ins += "\n#line " + std::to_string(line) + "\n";
      }
      edits.emplace_back(offset, ins);
    }
    std::vector<const Literal*> outermost;
    for (const Literal& l : ls) {
      bool nested = false;
      for (const Literal& o : ls)
        if (inside(l, o)) nested = true;
      if (!nested) outermost.push_back(&l);
    }
    std::sort(outermost.begin(), outermost.end(),
              [](const Literal* a, const Literal* b) { return a->begin < b->begin; });
    std::size_t next = 0;
    for (const auto& [offset, ins] : edits) {
      for (; next < outermost.size() && outermost[next]->begin < offset; ++next) {
        const Literal& l = *outermost[next];
        result += text.substr(at, l.begin - at).str() + l.name;
        const llvm::StringRef literal = text.substr(l.begin, l.end - l.begin);
        result += std::string(static_cast<std::size_t>(literal.count('\n')), '\n');
        at = l.end;
      }
      result += text.substr(at, offset - at).str() + ins;
      at = offset;
    }
    for (; next < outermost.size(); ++next) {
      const Literal& l = *outermost[next];
      result += text.substr(at, l.begin - at).str() + l.name;
      const llvm::StringRef literal = text.substr(l.begin, l.end - l.begin);
      result += std::string(static_cast<std::size_t>(literal.count('\n')), '\n');
      at = l.end;
    }
    result += text.substr(at).str();
    const auto entry = sm.getFileEntryRefForID(fid);
    if (!entry) continue;
    llvm::SmallString<256> path(entry->getName());
    llvm::sys::fs::make_absolute(path);
    out[path.str().str()] = std::move(result);
  }
  return out;
}

} // namespace privatizer

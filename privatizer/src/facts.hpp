// What one translation unit says about its variables: every variable with static storage
// declared in the user's files, every use of one, and where each initializer is.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/OpenMPClause.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <string>
#include <vector>

namespace privatizer {

/// Where a use stands in OpenMP code (all null outside it).
struct OmpPlace {
  /// The innermost directive whose associated statement holds the use. The expressions of a
  /// directive's clauses are evaluated before its region: their region is the enclosing one.
  const clang::OMPExecutableDirective* region = nullptr;
  const clang::OMPClause* clause = nullptr; ///< the clause whose variable list holds the use
  const clang::OMPExecutableDirective* directive = nullptr; ///< that clause's directive
  const clang::Decl* declaration = nullptr; ///< `#pragma omp threadprivate` or `allocate`
};

/// One expression that names a variable with static storage.
struct Use {
  const clang::VarDecl* var = nullptr; ///< canonical declaration
  const clang::Expr* expr = nullptr;   ///< DeclRefExpr or MemberExpr
  clang::SourceLocation name;          ///< the name token
  clang::SourceLocation begin;         ///< start of the qualifier (== name without one)
  const clang::VarDecl* in_init =
      nullptr; ///< the static-storage variable whose initializer holds it
  const clang::DeclContext* function = nullptr; ///< innermost function or lambda around it
  bool evaluated = true;                        ///< false under sizeof / alignof
  OmpPlace omp;
};

/// Facts of one translation unit, in source order.
struct Facts {
  /// Every declaration (all redeclarations) of variables with static storage in user files.
  std::vector<const clang::VarDecl*> declarations;
  /// Block-scope declaration statements that declare static locals.
  std::vector<const clang::DeclStmt*> static_local_statements;
  /// Using-declarations (C++) that name a variable.
  std::vector<const clang::UsingDecl*> usings;
  std::vector<Use> uses;
  /// Innermost function definition around each static local (C moves them in front of it).
  std::map<const clang::VarDecl*, const clang::FunctionDecl*> enclosing_function;
  /// The program's main (renamed by mpi.h, or still called main when the unit does not
  /// include mpi.h), when this unit defines it.
  const clang::FunctionDecl* user_main = nullptr;
  /// Declarations of functions with the constructor or destructor attribute.
  std::vector<const clang::FunctionDecl*> constructors;
  /// Whether a user file of the unit has a catch handler: its code may call MPI, and so switch
  /// ranks, while an exception is being handled.
  bool catches = false;
  /// The directive whose region holds each OpenMP directive (null at the top).
  std::map<const clang::OMPExecutableDirective*, const clang::OMPExecutableDirective*> omp_parent;
};

/// The declaration that stands for a variable: the canonical one, and for a static data
/// member of a class template instantiation the member of the template itself.
const clang::VarDecl* canonical_var(const clang::VarDecl* v);

/// Walks the translation unit (template patterns, not instantiations).
Facts collect_facts(clang::ASTContext& ctx);

/// True for a location in a file the privatizer may rewrite: not a system header, or a header
/// of one of the user's folders given as system folders (set_user_system_dirs).
bool in_user_file(const clang::SourceManager& sm, clang::SourceLocation loc);

/// The user's folders that the command line gives as system folders (-isystem, -idirafter):
/// their headers are the program's, privatized like those of -I folders. The compiler's own
/// system folders are not among them.
void set_user_system_dirs(const std::vector<std::string>& dirs);

} // namespace privatizer

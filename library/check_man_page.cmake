# CTest's man_page: every subcommand of `xme --help`, and every option of `xme --help` and of each
# `xme SUBCOMMAND --help`, appears in the man page (docs/xme.1, written by hand), so an option added
# to the program without its documentation fails the test. Arguments (-D): XME PAGE.
cmake_minimum_required(VERSION 3.25)

function(help_of out)  # help_of OUT [SUBCOMMAND]: the help text, with a newline before its first line
  execute_process(COMMAND ${XME} ${ARGN} --help RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE text)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man_page: xme ${ARGN} --help failed (${rc}): ${text}")
  endif()
  set(${out} "\n${text}" PARENT_SCOPE)
endfunction()

# The page as it reads: roff's font changes (\fB ... \fR) and escaped hyphens (\-) undone.
file(READ ${PAGE} page)
string(REGEX REPLACE "\\\\f[BIRP]" "" page "${page}")
string(REPLACE "\\-" "-" page "${page}")

set(missing "")
function(check what)  # check WORD CONTEXT: WORD must appear in the page, not as part of a longer one
  string(REGEX REPLACE "([.+*?^$()])" "\\\\\\1" pattern "${what}")
  if(NOT page MATCHES "(^|[^a-zA-Z0-9-])${pattern}($|[^a-zA-Z0-9-])")
    set(missing "${missing}\n  ${what} (${ARGN})" PARENT_SCOPE)
  endif()
endfunction()
# Option entries of a help text: "  -o,--output TEXT ...", "  --range INT=16 ...".
function(check_options text context)
  string(REGEX MATCHALL "\n  -[-a-zA-Z0-9,]+" entries "${text}")
  foreach(entry ${entries})
    string(STRIP "${entry}" entry)
    string(REPLACE "," ";" names "${entry}")
    foreach(name ${names})
      check(${name} "${context}")
    endforeach()
  endforeach()
  set(missing "${missing}" PARENT_SCOPE)
endfunction()

help_of(top)
check_options("${top}" "xme --help")
string(FIND "${top}" "\nSubcommands:\n" at)
if(at LESS 0)
  message(FATAL_ERROR "man_page: xme --help lists no subcommands:${top}")
endif()
string(SUBSTRING "${top}" ${at} -1 subcommand_list)
string(REGEX MATCHALL "\n  [a-z]+ " subcommands "${subcommand_list}")
list(LENGTH subcommands count)
message(STATUS "man_page: ${count} subcommands in xme --help")
foreach(subcommand ${subcommands})
  string(STRIP "${subcommand}" subcommand)
  # Each subcommand has a section of its own: .SS "xme SUBCOMMAND ...".
  if(NOT page MATCHES "\n\\.SS \"?xme ${subcommand}[\" \n]")
    set(missing "${missing}\n  a section .SS xme ${subcommand}")
  endif()
  help_of(help ${subcommand})
  check_options("${help}" "xme ${subcommand} --help")
endforeach()
if(missing)
  message(FATAL_ERROR "man_page: ${PAGE} lacks${missing}\nDocument each there: its meaning, values, limits and exit codes.")
endif()
message(STATUS "man_page: every subcommand and option of xme --help is in ${PAGE}")

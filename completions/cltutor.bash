# bash completion for cltutor(1)
# Install as /usr/share/bash-completion/completions/cltutor, or source it.
#
# Nothing here lists commands or options: they are read at completion time
# from the program being completed, so that they never drift from it:
#   commands and global options   `cltutor --help`
#   a command's options           `cltutor COMMAND --help` (its usage lines
#                                 and its option lines, "  -o, --output FILE")
#   chapters                      `cltutor list --json` (numbers and folder
#                                 names), else the numbers of `cltutor list`
# and `all` where the command's usage line says [LESSON...|all]. Each answer
# is kept for the rest of the shell session (per program path). The program
# is asked in English (LC_ALL=C, LANGUAGE empty): its help is parsed.
# An option whose argument is FILE completes file names; DIR (or WORKSPACE),
# folder names.

declare -gA _cltutor_cache 2>/dev/null || declare -A _cltutor_cache

# _cltutor_run BIN ARGS...: REPLY is the standard output of `BIN ARGS...`,
# computed once per shell.
_cltutor_run() {
    local key="run|$*"
    if [[ -z ${_cltutor_cache[$key]+set} ]]; then
        _cltutor_cache[$key]=$(LC_ALL=C LANGUAGE= NO_COLOR=1 "$@" 2>/dev/null </dev/null)
    fi
    REPLY=${_cltutor_cache[$key]}
}

# _cltutor_commands BIN: REPLY is the commands of `BIN --help`, one a line.
_cltutor_commands() {
    local key="commands|$1"
    if [[ -z ${_cltutor_cache[$key]+set} ]]; then
        _cltutor_run "$1" --help
        local line in=0 out=""
        while IFS= read -r line; do
            if [[ $line == Commands:* ]]; then in=1; continue; fi
            ((in)) || continue
            [[ -z $line ]] && break
            [[ $line =~ ^\ \ ([a-z][a-z0-9_-]*) ]] && out+="${BASH_REMATCH[1]}"$'\n'
        done <<<"$REPLY"
        _cltutor_cache[$key]=$out
    fi
    REPLY=${_cltutor_cache[$key]}
}

# _cltutor_options BIN [COMMAND]: REPLY is one "OPTION ARG" line per option
# of the help's usage lines and option lines (ARG "-" for none; an option
# line's argument wins over the usage line's), then "@lesson N" (N: 0 no
# LESSON argument, 1 one, 2 several) and "@all" when the usage offers `all`.
_cltutor_options() {
    local key="options|$1|$2"
    if [[ -z ${_cltutor_cache[$key]+set} ]]; then
        if [[ -n $2 ]]; then _cltutor_run "$1" "$2" --help; else _cltutor_run "$1" --help; fi
        local -A arg=()
        local -a order=()
        local line usage=1 lesson=0 all=0 spec w nx name a i
        local -a t
        while IFS= read -r line; do
            if ((usage)); then
                if [[ -z $line ]]; then usage=0; continue; fi
                [[ $line == *LESSON...* ]] && lesson=2
                [[ $line == *LESSON* && $lesson == 0 ]] && lesson=1
                [[ $line == *\|all\]* ]] && all=1
                read -ra t <<<"$line"
                for ((i = 0; i < ${#t[@]}; i++)); do
                    w=${t[i]#[}
                    [[ $w == -?* ]] || continue
                    name=${w%%[]|]*}
                    a=-
                    if [[ $w != *[]\|]* ]] && ((i + 1 < ${#t[@]})); then
                        nx=${t[i + 1]#[}
                        nx=${nx%%[]|]*}
                        [[ -n $nx && $nx != -* ]] && a=$nx
                    fi
                    [[ -z ${arg[$name]+set} ]] && order+=("$name")
                    [[ -z ${arg[$name]+set} || ${arg[$name]} == - ]] && arg[$name]=$a
                done
            elif [[ $line =~ ^\ {1,8}(-[^ ].*)$ ]]; then
                spec=${BASH_REMATCH[1]}
                spec=${spec%%  *}
                read -ra t <<<"$spec"
                a=-
                local -a names=()
                for w in "${t[@]}"; do
                    w=${w%,}
                    if [[ $w == -* ]]; then names+=("$w"); else a=$w; break; fi
                done
                for name in "${names[@]}"; do
                    [[ -z ${arg[$name]+set} ]] && order+=("$name")
                    arg[$name]=$a
                done
            fi
        done <<<"$REPLY"
        local out=""
        for name in "${order[@]}"; do out+="$name ${arg[$name]}"$'\n'; done
        out+="@lesson $lesson"$'\n'
        ((all)) && out+="@all"$'\n'
        _cltutor_cache[$key]=$out
    fi
    REPLY=${_cltutor_cache[$key]}
}

# _cltutor_chapters BIN: REPLY is every chapter's number and folder name.
_cltutor_chapters() {
    local key="chapters|$1"
    if [[ -z ${_cltutor_cache[$key]+set} ]]; then
        local line out="" rest re='"(number|id)"[[:space:]]*:[[:space:]]*("([^"]*)"|([0-9]+))'
        _cltutor_run "$1" list --json
        rest=$REPLY
        while [[ $rest =~ $re ]]; do
            out+="${BASH_REMATCH[3]}${BASH_REMATCH[4]}"$'\n'
            rest=${rest#*"${BASH_REMATCH[0]}"}
        done
        if [[ -z $out ]]; then
            _cltutor_run "$1" list
            while IFS= read -r line; do
                [[ $line =~ ^[\ \>]*([0-9]+)[[:space:]] ]] && out+="${BASH_REMATCH[1]}"$'\n'
            done <<<"$REPLY"
        fi
        _cltutor_cache[$key]=$out
    fi
    REPLY=${_cltutor_cache[$key]}
}

# _cltutor_optarg OPTIONS OPT: REPLY is OPT's argument name in OPTIONS
# (from _cltutor_options), "-" when it takes none, "" when it is unknown.
_cltutor_optarg() {
    local o a
    REPLY=""
    while read -r o a; do
        [[ $o == "$2" ]] && { REPLY=$a; return; }
    done <<<"$1"
}

# _cltutor_value ARG CUR: completes the argument of an option.
_cltutor_value() {
    case $1 in
        FILE | *FILE)
            if declare -F _filedir >/dev/null; then _filedir; else
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$2")
            fi ;;
        DIR | *DIR | WORKSPACE)
            if declare -F _filedir >/dev/null; then _filedir -d; else
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -d -- "$2")
            fi ;;
        *) COMPREPLY=() ;;
    esac
}

_cltutor() {
    COMPREPLY=()
    local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]}
    [[ $bin == "~/"* ]] && bin=$HOME/${bin#"~/"}
    command -v -- "$bin" >/dev/null 2>&1 || return 0
    # --opt=value: bash splits it into --opt, =, value
    local prev=${COMP_WORDS[cword - 1]}
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = ]] && ((cword >= 2)); then
        prev=${COMP_WORDS[cword - 2]}
    fi

    local global
    _cltutor_options "$bin"
    global=$REPLY

    # the command word: the first word that is neither a global option nor its argument
    local i=1 w cmd="" cmdi=0
    while ((i < cword)); do
        w=${COMP_WORDS[i]}
        if [[ $w == -* ]]; then
            _cltutor_optarg "$global" "$w"
            if [[ ${COMP_WORDS[i + 1]} == = ]]; then
                ((i += 2))
            elif [[ -n $REPLY && $REPLY != - ]]; then
                ((i++))
            fi
        elif [[ $w != = ]]; then
            cmd=$w
            cmdi=$i
            break
        fi
        ((i++))
    done

    local opts
    if [[ -z $cmd ]]; then
        opts=$global
    else
        # only a command that --help lists is asked for its own help
        _cltutor_commands "$bin"
        [[ $'\n'$REPLY == *$'\n'"$cmd"$'\n'* ]] || return 0
        _cltutor_options "$bin" "$cmd"
        opts=$REPLY
    fi

    # the argument of an option
    if [[ $prev == -* ]] && ((cword - 1 > cmdi || cmdi == 0)); then
        _cltutor_optarg "$opts" "$prev"
        if [[ -n $REPLY && $REPLY != - ]]; then
            _cltutor_value "$REPLY" "$cur"
            return 0
        fi
    fi

    local longs="" o a
    while read -r o a; do
        [[ $o == --* ]] && longs+=" $o"
    done <<<"$opts"
    [[ $longs == *" --help"* ]] || longs+=" --help"

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "$longs" -- "$cur")
        else
            _cltutor_commands "$bin"
            mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
        fi
        return 0
    fi

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$longs" -- "$cur")
        return 0
    fi

    # a positional argument: how many are there already?
    local lesson=0 all=0 given=0
    while read -r o a; do
        [[ $o == @lesson ]] && lesson=$a
        [[ $o == @all ]] && all=1
    done <<<"$opts"
    for ((i = cmdi + 1; i < cword; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == -* ]]; then
            _cltutor_optarg "$opts" "$w"
            if [[ ${COMP_WORDS[i + 1]} == = ]]; then
                ((i += 2))
            elif [[ -n $REPLY && $REPLY != - ]]; then
                ((i++))
            fi
        elif [[ $w != = ]]; then
            ((given++))
        fi
    done
    local words=""
    if ((lesson == 2 || (lesson == 1 && given == 0))); then
        _cltutor_chapters "$bin"
        words=$REPLY
        ((all && given == 0)) && words+=$'\nall'
    fi
    # nothing left to name: the options
    [[ -z $words ]] && words=$longs
    mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
    return 0
} &&
    complete -F _cltutor cltutor

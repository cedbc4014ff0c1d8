# trainlist.sh, sourced by teacher.sh and student.sh: training_list prints
# the shipped models' training data as a `discspan train --train` list:
# cdb train and the ten suites of folder $1 (.gpu/train), without the
# sentences that repeat cdb dev or test (the suites' LICENSE-NOTE.txt).
training_list() {
	local dir=$1 list=$1/train.punctmoved.discbracket f
	for f in "$dir"/*.punctmoved.discbracket; do
		case $(basename "$f") in
		train.* | dev.* | test.*) ;;
		*) list=$list,$f ;;
		esac
	done
	echo "$list,-$dir/dev.punctmoved.discbracket,-$dir/test.punctmoved.discbracket"
}

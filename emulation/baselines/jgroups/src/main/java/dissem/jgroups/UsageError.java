package dissem.jgroups;

/** A bad command line: the message names the option; the process exits 2. */
final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
        super(message);
    }
}

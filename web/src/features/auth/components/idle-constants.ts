/** Class on the warning dialog's content box: activity inside it does not count as "activity". */
export const IDLE_DIALOG_CONTENT_CLASS = 'idle-warning-content';

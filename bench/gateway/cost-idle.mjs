export const IDLE_TEXT = '(idle text pending)';

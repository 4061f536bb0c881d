/** What every dialog of the app is given: whether it is open, and how to close it. */
export type ModalProps = { opened: boolean; onClose: () => void };

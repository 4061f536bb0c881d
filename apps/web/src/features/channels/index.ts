/** What other features use of the channels: the test send, the SMS counter, voice fields, statuses and reasons. */
export { ChannelsHealthPanel } from './ChannelsHealthPanel';
export { STATUS_COLOR } from './MessageStatusView';
export { reasonText } from './reasons';
export { SendErrorAlert } from './SendErrorAlert';
export { SmsCounter } from './SmsCounter';
export { TestSendButton } from './TestSendButton';
export { TestSendDialog } from './TestSendDialog';
export { type VoiceContent, VoiceFields } from './VoiceFields';

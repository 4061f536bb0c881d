import {
  IconChartPie,
  IconCoin,
  IconDatabaseSearch,
  IconHeadphones,
  IconLink,
  IconListDetails,
  IconMessageReply,
  IconSpeakerphone,
  IconUserSearch,
  IconUsers,
  IconUsersGroup,
  IconWorldSearch,
} from '@tabler/icons-react';

const ICONS = {
  dashboard: IconChartPie,
  lists: IconListDetails,
  campaigns: IconSpeakerphone,
  audios: IconHeadphones,
  rotatingLink: IconLink,
  replies: IconMessageReply,
  enrichment: IconDatabaseSearch,
  shopping: IconCoin,
  campaignsPerUser: IconUsersGroup,
  enrichmentPerUser: IconUserSearch,
  users: IconUsers,
  linksPerUser: IconWorldSearch,
} as const;

export function NavIcon({ name, size = 20 }: { name: string; size?: number }) {
  const Icon = ICONS[name as keyof typeof ICONS] ?? IconChartPie;
  return <Icon size={size} stroke={1.7} />;
}
